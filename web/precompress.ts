import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes a .br and a .gz beside a file of the build, at the highest levels: the server sends them as
 * they are (no compression per request), so the slow, small settings cost nothing.
 */
export async function writeCompressed(file: string, content: Buffer): Promise<void> {
  await writeFile(`${file}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(`${file}.gz`, await gz(content, { level: 9 }));
}
