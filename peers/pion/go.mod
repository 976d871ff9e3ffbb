module agentd-peers

go 1.19
