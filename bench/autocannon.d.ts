declare module 'autocannon' {
  type Options = { url: string; connections?: number; duration?: number; pipelining?: number; headers?: Record<string, string>; method?: string; body?: string };
  type Histogram = { average: number; p50: number; p99: number; max: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number; statusCodeStats?: Record<string, { count: number }> };
  export default function autocannon(options: Options): Promise<Result>;
}
