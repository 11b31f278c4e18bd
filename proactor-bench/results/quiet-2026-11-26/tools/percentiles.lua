done = function(summary, latency, requests)
  local out = ""
  for _, p in pairs({50, 90, 95, 97, 98, 99, 99.5, 99.9}) do
    out = out .. string.format("p%s=%.1f ", p, latency:percentile(p) / 1000)
  end
  io.write(out .. string.format("max=%.1f req=%d\n", latency.max / 1000, summary.requests))
end
