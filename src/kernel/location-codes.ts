/**
 * The normalized form of a location code: organization id and location id joined by a hyphen. Import
 * rows and availability checks may name a location by its code or by this form.
 */
export const normalizedLocationCode = (organizationId: string, locationId: string) => `${organizationId}-${locationId}`;
