import { builder } from './builder.js';
import './scalars.js';
import './root.js';
import './auth/session.js';
import './products/product.js';

export const schema = builder.toSchema({ sortSchema: false });
