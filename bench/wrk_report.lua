-- wrk reporting hook for bench/run: one machine-readable line after wrk's own summary.
-- Latencies are in microseconds; errors.status counts responses that were not 2xx/3xx, and ok_rps
-- leaves them out (a server answering 500s quickly must not look fast).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d rps=%.1f ok_rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d bytes=%d " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    (summary.requests - e.status) / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout))
end
