import Agent
import Foundation

/// Reads a small file the user names (a recipe, the daemon's config) whole, within a size
/// limit, and only if it is a regular file: a FIFO would block the read, and a huge file or a
/// device would be read into memory without end.
enum BoundedFile {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case tooLarge(limit: Int)

        var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .tooLarge(let limit): "it is larger than \(limit >> 10) KiB"
            }
        }
    }

    static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let handle: FileHandle
        do { handle = try MediaFile.openHandle(path) } catch { throw .unreadable(error.reason) }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw Failure.tooLarge(limit: limit) }
            return data
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
    }
}
