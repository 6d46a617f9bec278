import type { RestArea } from '../route.js';
import { importRoutes, importSchemas } from './import-routes.js';

export const importArea: RestArea = {
  routes: importRoutes,
  schemas: importSchemas,
  tags: [{ name: 'Import', description: "Bulk imports: the rows are stored as a job (202) and applied in chunks by the server's workers; poll the job's statusUrl." }],
};
