// agentd-bench: release-built benchmarks that print figures beside an anchor measured in the
// same run (house rule 12). See scripts/bench.
print("agentd-bench: no benchmark selected")
