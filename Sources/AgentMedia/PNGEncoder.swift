import CZlib

/// Writes an ``RGBImage`` as a PNG file's bytes (ISO/IEC 15948, PNG 3rd edition): 8-bit
/// truecolour, no interlace, one IDAT.
///
///     89 50 4E 47 0D 0A 1A 0A                 signature
///     [length u32][type "IHDR"][data][CRC-32]   width u32, height u32, depth 8, colour 2, 0, 0, 0
///     [length u32][type "IDAT"][data][CRC-32]   zlib stream of the rows, each after its filter byte
///     [length u32][type "IEND"][][CRC-32]
///
/// The CRC covers type and data (§5.3). Rows use filter 1 (Sub: each byte minus the one a pixel
/// to its left), which shrinks the smooth pictures thumbnails are at no cost worth measuring.
/// zlib does the deflate and the CRC; the chunk layout is ours.
public enum PNGEncoder {
    /// Pixels of the largest picture taken: a 4K frame, far above any thumbnail.
    public static let maxPixels = 3840 * 2160

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func encode(_ image: RGBImage) throws(PNGError) -> [UInt8] {
        guard image.width * image.height <= maxPixels else { throw .tooLarge(width: image.width, height: image.height) }
        var header: [UInt8] = []
        append(UInt32(image.width), to: &header)
        append(UInt32(image.height), to: &header)
        header += [8, 2, 0, 0, 0]  // depth 8, truecolour, deflate, adaptive filtering, no interlace
        var png = signature
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", try deflate(filteredRows(image)), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Each row as filter type 1 (Sub) and the row's bytes less their left neighbour's (§9.2).
    static func filteredRows(_ image: RGBImage) -> [UInt8] {
        let rowBytes = image.width * 3
        var rows = [UInt8]()
        rows.reserveCapacity(image.height * (rowBytes + 1))
        for row in 0..<image.height {
            let start = row * rowBytes
            rows.append(1)
            for index in 0..<rowBytes {
                let left = index >= 3 ? image.pixels[start + index - 3] : 0
                rows.append(image.pixels[start + index] &- left)
            }
        }
        return rows
    }

    static func deflate(_ bytes: [UInt8]) throws(PNGError) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let code = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &capacity, input.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
            }
        }
        guard code == Z_OK else { throw .compressionFailed(code: code) }
        output.removeLast(output.count - Int(capacity))
        return output
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        append(UInt32(data.count), to: &png)
        png += typeBytes
        png += data
        // zlib's crc32 answers 0 to a null buffer (its way to start a CRC), so an empty chunk's
        // data is not passed at all.
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        if !data.isEmpty {
            crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        }
        append(UInt32(truncatingIfNeeded: crc), to: &png)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
