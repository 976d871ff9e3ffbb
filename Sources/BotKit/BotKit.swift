import Agent
