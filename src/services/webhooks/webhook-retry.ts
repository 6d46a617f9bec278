import type { WebhookSettings } from '../../config.js';

/**
 * Wait before the next attempt after `failed` failed attempts (1 = the first): retryBaseMs doubled per
 * further failure, at most retryMaxMs, with full jitter on the upper half (so endpoints that failed together
 * do not retry together).
 */
export function retryDelayMs(failed: number, settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryMaxMs'>, random = Math.random): number {
  const ceiling = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.max(0, failed - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
