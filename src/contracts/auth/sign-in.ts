import { z } from 'zod';
import { mustBe } from '../parse.js';

/** Body of POST /api/auth/sign-in (the arguments of signIn). Other fields are ignored, as they always were. */
export const signInBody = z.object({
  email: z.string({ error: mustBe('text') }).meta({ format: 'email' }),
  password: z.string({ error: mustBe('text') }),
  organizationId: z.string({ error: mustBe('text') }).nullish().meta({ description: 'Organization to act in (default: the first one the user joined).' }),
});
