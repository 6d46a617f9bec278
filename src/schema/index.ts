import { builder } from './builder.js';
import './scalars.js';
import './root.js';
import './auth/session.js';
import './products/product.js';
import './inventory/stock-line.js';
import './master-data/location.js';
import './master-data/channel.js';
import './master-data/category.js';
import './api-keys/api-key.js';
import './forecasting/external-event.js';

export const schema = builder.toSchema({ sortSchema: false });
