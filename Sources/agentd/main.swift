import Agent
import Foundation

// Before any thread starts: glibc makes an arena as a thread first allocates, so the limit goes first.
MallocArenas.limit(to: MallocArenas.daemonDefault)

// The process's one set of transport loops (one per core, started as engines take them). Every
// command's engines share it; it lives until exit, which ends its threads.
let loops = LoopGroup()

let tool = CommandLineTool(
    environment: ProcessInfo.processInfo.environment,
    standardOutput: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
    standardError: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
    loops: loops
)
let code = await tool.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
