// A download over a real connection that stops reading after its first data, as a stalled browser does.
import { once } from 'node:events';
import type http from 'node:http';

/**
 * Waits for the download's first data and pauses it. Resolves, once the reader reads on, with how the
 * download ended: as a whole file, or cut off (what a file short of its rows must be).
 */
export async function pauseAfterFirstData(download: http.IncomingMessage) {
  await once(download, 'data');
  download.pause();
  return new Promise<'ended as a whole file' | 'cut off'>((resolve) => {
    download.once('end', () => resolve('ended as a whole file'));
    download.once('error', () => resolve('cut off'));
  });
}
