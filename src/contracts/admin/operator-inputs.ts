import { z } from 'zod';

// What the admin CLI and the demo seed accept: checked as strictly as input over HTTP.

export const organizationInput = z.object({
  name: z.string().trim().min(1, 'Required').max(200),
  capabilities: z.array(z.string().trim().min(1)).default([]),
  industry: z.string().trim().min(1).max(100).nullish(),
  /** Lot control: days of shelf life a lot must have left to be picked, for products without their own minimum. */
  minShelfLifeDays: z.number().int().min(0).max(36_500).optional(),
});

/** The settings an operator may change on an existing organization (admin set-org-settings). */
export const organizationSettingsInput = z.strictObject({
  organizationId: z.string().min(1),
  minShelfLifeDays: organizationInput.shape.minShelfLifeDays.unwrap(),
});

/** A user and their role in an organization; the roles are the database's (which a contract may not import). */
export const userInput = <R extends string>(roles: readonly R[]) =>
  z.object({
    organizationId: z.string().min(1),
    email: z.string().trim().toLowerCase().email('Must be an email address'),
    password: z.string().min(8, 'At least 8 characters'),
    role: z.enum(roles as [R, ...R[]]),
    name: z.string().trim().max(200).nullish(),
  });

/** An API key made by an operator: the fields of one made over HTTP, for any organization. */
export const operatorApiKeyInput = <Fields extends z.ZodRawShape>(apiKeyFields: Fields) =>
  z.object({ organizationId: z.string().min(1), ...apiKeyFields, createdByUserId: z.string().nullish() });
