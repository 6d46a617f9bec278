import { forbiddenBody } from '../common-responses.js';
import { errorResponses, jsonContent, responses } from '../openapi-common.js';

const CAPABILITY = 'ai.forecasting.demand';

/** Forecast endpoints also answer 403 FEATURE_NOT_ENABLED when the plan lacks the capability. */
export const forecastingForbidden = {
  description: `Not allowed: INSUFFICIENT_SCOPE or FORBIDDEN, or FEATURE_NOT_ENABLED when the organization's plan lacks ${CAPABILITY}`,
  ...jsonContent(forbiddenBody),
};

/** The success responses and errors of a forecasting route, with its 403. */
export const forecastingResponses = (success: Record<string, unknown>, errors: (keyof typeof errorResponses)[]) => ({
  ...responses(success, errors),
  403: forecastingForbidden,
});
