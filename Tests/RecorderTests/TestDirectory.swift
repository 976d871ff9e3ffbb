import Foundation

/// A fresh directory under the system temp dir, removed by ``remove()``.
struct TestDirectory {
    let path: String

    init(_ label: String = #function) throws {
        let name = label.filter { $0.isLetter || $0.isNumber }
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("recorder-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A sine tone as 16-bit samples: `amplitude * sin(2π f n / 48000)` for n in `start..<start+count`.
func tone(frequency: Double, count: Int, amplitude: Double = 8000, start: Int = 0) -> [Int16] {
    (0..<count).map { index in
        Int16((amplitude * sin(2 * Double.pi * frequency * Double(start + index) / 48_000)).rounded())
    }
}
