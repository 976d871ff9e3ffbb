import Foundation
import TestSupport
import Testing

/// The layers above Agent reach C only through Agent's wrappers (house rule 4). The compiler does
/// not enforce that: SwiftPM hands every target the module maps of all its dependencies' C
/// modules, so `import CSoup` compiles in agentd though agentd does not depend on CSoup. This
/// reads the sources instead.
@Suite struct ModuleImportsTests {
    /// The C modules each target may import; a target not named here is not checked.
    static let allowedCModules: [String: Set<String>] = [
        "AgentCore": [],
        "AgentWire": [],
        "AgentMedia": ["COpus", "CVPX", "COpenH264", "COgg", "CSndFile", "CSampleRate", "CYUV", "CZlib", "CSpeexDSP", "CAgentShims"],
        "AgentTransport": ["CNice", "COpenSSL", "CSRTP", "CUsrSCTP", "CSoup", "CAgentShims"],
        "AgentSession": [],
        "AgentJanus": ["COpenSSL"],
        "AgentWHIP": [],
        "Agent": [],
        "agentd": [],
        "AgentdCore": [],
        "Recorder": ["COgg"],
        "BotKit": ["CWebMParser"],
        "RecordingReport": [],
        "Speech": ["CPocketSphinx"],
    ]

    @Test("agentd imports no C module, Recorder only COgg, BotKit only CWebMParser, and each Agent layer only its own")
    func cImportsStayInTheirLayers() throws {
        var offending: [String] = []
        for (target, allowed) in Self.allowedCModules.sorted(by: { $0.key < $1.key }) {
            let files = try Self.swiftFiles(under: Repository.root.appendingPathComponent("Sources/\(target)"))
            #expect(!files.isEmpty, "no Swift files under Sources/\(target)")
            for file in files {
                for (number, module) in try Self.cImports(in: file) where !allowed.contains(module) {
                    offending.append("\(Self.repositoryPath(of: file)):\(number): import \(module)")
                }
            }
        }
        #expect(offending.isEmpty, "C modules imported outside their layer:\n\(offending.joined(separator: "\n"))")
    }

    /// Our Swift modules each target may import: the target graph of issue 12, which runs one way
    /// (agentd → {Recorder, BotKit} → the room API → the adapters (Janus, WHIP) → session → transport, media
    /// and wire → the vocabulary). SwiftPM lets a target import any module of its dependencies'
    /// closure, and any module built before it, so Package.swift alone does not hold the line.
    static let allowedOwnModules: [String: Set<String>] = [
        "AgentCore": [],
        "AgentWire": ["AgentCore"],
        "AgentMedia": ["AgentCore"],
        "AgentTransport": ["AgentCore"],
        "AgentSession": ["AgentCore", "AgentWire", "AgentMedia", "AgentTransport"],
        "AgentJanus": ["AgentCore", "AgentWire", "AgentTransport", "AgentSession"],
        "AgentWHIP": ["AgentCore", "AgentWire", "AgentTransport", "AgentSession"],
        "Agent": ["AgentCore", "AgentWire", "AgentMedia", "AgentTransport", "AgentSession", "AgentJanus", "AgentWHIP"],
        "Recorder": ["Agent", "Speech"],
        "BotKit": ["Agent"],
        "AgentdCore": ["AgentCore", "AgentTransport", "Recorder"],
        "Speech": ["AgentCore"],
        "RecordingReport": ["Agent", "Recorder", "BotKit"],
        "agentd": ["Agent", "Recorder", "BotKit", "AgentdCore", "RecordingReport", "Speech"],
    ]

    @Test("each target imports only the targets below it")
    func importsRunDownward() throws {
        let ours = Set(Self.allowedOwnModules.keys)
        var offending: [String] = []
        for (target, allowed) in Self.allowedOwnModules.sorted(by: { $0.key < $1.key }) {
            let files = try Self.swiftFiles(under: Repository.root.appendingPathComponent("Sources/\(target)"))
            #expect(!files.isEmpty, "no Swift files under Sources/\(target)")
            for file in files {
                for (number, module) in try Self.imports(in: file) where ours.contains(module) && !allowed.contains(module) {
                    offending.append("\(Self.repositoryPath(of: file)):\(number): import \(module)")
                }
            }
        }
        #expect(offending.isEmpty, "targets importing one above them or beside them:\n\(offending.joined(separator: "\n"))")
    }

    @Test("the import reader finds plain, attributed and kind imports of C modules, and nothing else")
    func readerSeesEveryForm() {
        let lines = [
            "import CSoup",
            "@testable import CNice",
            "@_exported import COgg",
            "  import struct CVPX.vpx_image",
            "import Foundation",
            "import Combine.Subscribers",  // "C" then a lowercase letter: not one of our C modules
            "// import CSndFile",
        ]
        #expect(lines.compactMap(Self.cModule(imported:)) == ["CSoup", "CNice", "COgg", "CVPX"])
        #expect(lines.compactMap(Self.module(imported:)) == ["CSoup", "CNice", "COgg", "CVPX", "Foundation", "Combine"])
        #expect(["@_exported import AgentCore", "@testable import AgentSession"].compactMap(Self.module(imported:)) == ["AgentCore", "AgentSession"])
    }

    /// The module an import line names, in any of its forms (attributed, `import struct M.T`).
    static var anyImport: Regex<(Substring, Substring)> {
        #/^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)/#
    }

    static func module(imported line: String) -> String? {
        guard line.contains("import") else { return nil }  // the regex is slow; most lines import nothing
        return line.firstMatch(of: anyImport).map { String($0.output.1) }
    }

    /// Our C modules are named C + a capital letter (CSoup, CAgentShims, CWebMParser, ...).
    static func cModule(imported line: String) -> String? {
        module(imported: line).flatMap { $0.firstMatch(of: #/^C[A-Z]/#) == nil ? nil : $0 }
    }

    /// Each line number (from 1) that imports a module, with the module.
    static func imports(in file: URL) throws -> [(Int, String)] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            module(imported: String(line)).map { (index + 1, $0) }
        }
    }

    /// Each line number (from 1) that imports a C module, with the module.
    static func cImports(in file: URL) throws -> [(Int, String)] {
        try imports(in: file).filter { $0.1.firstMatch(of: #/^C[A-Z]/#) != nil }
    }

    static func repositoryPath(of file: URL) -> String {
        let root = Repository.root.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    static func swiftFiles(under directory: URL) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}
