import type { RestArea } from '../route.js';
import { authRoutes } from './sign-in-routes.js';

export const authArea: RestArea = {
  routes: authRoutes,
  tags: [{ name: 'Authentication', description: 'Sign in and out: a session token (JWT), also set as the scm_session cookie for browsers.' }],
};
