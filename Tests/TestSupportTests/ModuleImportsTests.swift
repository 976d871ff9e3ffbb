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
        "agentd": [],
        "Recorder": ["COgg"],
        "BotKit": ["CWebMParser"],
    ]

    @Test("agentd imports no C module, Recorder only COgg, BotKit only CWebMParser")
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
    }

    /// Our C modules are named C + a capital letter (CSoup, CAgentShims, CWebMParser, ...).
    static var cImport: Regex<(Substring, Substring)> {
        #/^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(C[A-Z]\w*)/#
    }

    static func cModule(imported line: String) -> String? {
        guard line.contains("import") else { return nil }  // the regex is slow; most lines import nothing
        return line.firstMatch(of: cImport).map { String($0.output.1) }
    }

    /// Each line number (from 1) that imports a C module, with the module.
    static func cImports(in file: URL) throws -> [(Int, String)] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            cModule(imported: String(line)).map { (index + 1, $0) }
        }
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
