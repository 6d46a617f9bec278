import { forbiddenBody } from '../common-responses.js';
import { type errorResponses, jsonContent, responses } from '../openapi-common.js';

const CAPABILITY = 'ai.forecasting.demand';

// Forecast endpoints answer 403 FEATURE_NOT_ENABLED when the plan lacks the capability.
const forbidden = {
  description: `Not allowed: INSUFFICIENT_SCOPE or FORBIDDEN, or FEATURE_NOT_ENABLED when the organization's plan lacks ${CAPABILITY}`,
  ...jsonContent(forbiddenBody),
};

/** The success responses and the named errors of a forecasting route, with its 403. */
export const withForbidden = (success: Record<string, unknown>, errors: (keyof typeof errorResponses)[]) => ({
  ...responses(success, errors),
  403: forbidden,
});

export const forecasting = { tags: ['Forecasting'] };
