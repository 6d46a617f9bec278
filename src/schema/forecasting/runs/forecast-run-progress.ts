import { forecastRunProgress } from '../../../services/forecasting/runs/run-progress.js';
import { builder } from '../../builder.js';
import { ForecastRunRef } from './forecast-run.js';
import { canReadForecasts } from '../forecast-scopes.js';

builder.subscriptionFields((t) => ({
  forecastRunProgress: t.field({
    type: ForecastRunRef,
    description:
      'Follows a forecast run over graphql-ws: the run now, then again whenever its status or processedSeries change, until it is COMPLETED or FAILED. Unknown or foreign ids give NOT_FOUND.',
    authScopes: canReadForecasts,
    args: { id: t.arg.id({ required: true, description: 'Forecast run id.' }) },
    subscribe: (_parent, args, ctx) => forecastRunProgress(ctx, String(args.id)),
    resolve: (run) => run,
  }),
}));
