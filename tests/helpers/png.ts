import zlib from 'node:zlib';

/** One PNG chunk: its length, type, data and CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG written by hand, for images no encoder would make (a header that claims more than the data
 * holds) or that would cost an encoder seconds: the header's width, height, bit depth and colour
 * type, and the rows (each with its filter byte) as they are deflated into the one IDAT chunk.
 */
export function handMadePng(
  header: { width: number; height: number; bitDepth: number; colourType: number },
  rows: Buffer,
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  // Compression, filter and interlace methods stay 0.
  ihdr.set([header.bitDepth, header.colourType], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
