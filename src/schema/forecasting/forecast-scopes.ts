// Forecasting is a plan capability: it is checked before the permission, so an organization
// without it learns FEATURE_NOT_ENABLED whatever the caller's scopes.
export const FORECASTING = 'ai.forecasting.demand';
export const canReadForecasts = { $all: { capability: FORECASTING, permission: 'forecast.read' } } as const;
export const canWriteForecasts = { $all: { capability: FORECASTING, permission: 'forecast.write' } } as const;
