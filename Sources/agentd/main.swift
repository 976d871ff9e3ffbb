print("agentd")
