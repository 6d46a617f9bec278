// The part of autocannon's API that bench/harness/load-generator.ts uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      requests?: Array<{
        setupRequest?: (request: any, context: Record<string, unknown>) => any;
        onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
      }>;
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
