// The room API is the one module callers import: `import Agent` brings the layers under it, as
// swift-nio's umbrella does. The layers themselves import only what sits below them
// (Package.swift; Tests/TestSupportTests/ModuleImportsTests checks the sources).
@_exported import AgentCore
@_exported import AgentJanus
@_exported import AgentMedia
@_exported import AgentSession
@_exported import AgentTransport
@_exported import AgentWHIP
@_exported import AgentWire
