// Forecasting is a plan capability: it is checked before the permission, so an organization
// without it learns FEATURE_NOT_ENABLED whatever the caller's scopes.
const FORECASTING = 'ai.forecasting.demand';

/** authScopes of forecasting reads. */
export const canReadForecasts = { $all: { capability: FORECASTING, permission: 'forecast.read' } } as const;
/** authScopes of forecasting writes. */
export const canWriteForecasts = { $all: { capability: FORECASTING, permission: 'forecast.write' } } as const;
