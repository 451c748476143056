// Duration and display size of an MP4/MOV, read from the container by mp4box (a maintained
// ISO-BMFF parser). The movie header (moov) may sit before or after the media data: mp4box
// says which byte it needs next, and when that is far ahead we reopen the object there
// instead of streaming hundreds of megabytes of samples we do not need.
import type { Readable } from 'node:stream';
import { createFile, MP4BoxBuffer, type Movie, type Track } from 'mp4box';

export interface VideoInfo {
  durationMs: number | null;
  width: number | null;
  height: number | null;
}

/** Opens the object at a byte offset. */
export type OpenAt = (start: number) => Promise<Readable>;

/** Reading on beats reopening for small gaps (one request costs more than a megabyte). */
const SEEK_THRESHOLD = 1024 * 1024;
const MAX_SEEKS = 32;

function durationMsOf(movie: Movie): number | null {
  let seconds = 0;
  if (movie.duration > 0 && movie.timescale > 0) seconds = movie.duration / movie.timescale;
  else if (movie.fragment_duration && movie.fragment_duration.den > 0) seconds = movie.fragment_duration.num / movie.fragment_duration.den;
  else {
    for (const t of movie.tracks) if (t.timescale > 0) seconds = Math.max(seconds, t.duration / t.timescale);
  }
  return seconds > 0 ? Math.round(seconds * 1000) : null;
}

/** Size as displayed: a 90°/270° rotation matrix (portrait phone video) swaps width and height. */
function displaySize(track: Track): { width: number | null; height: number | null } {
  const width = Math.round(track.track_width || track.video?.width || 0);
  const height = Math.round(track.track_height || track.video?.height || 0);
  if (!width || !height) return { width: null, height: null };
  const m = track.matrix as unknown as number[] | undefined;
  const rotated = Array.isArray(m) && m[0] === 0 && m[4] === 0 && m[1] !== 0;
  return rotated ? { width: height, height: width } : { width, height };
}

/**
 * The movie header as mp4box reports it, or null when the bytes hold no readable movie.
 * Throws only what `open` throws (storage errors).
 */
export async function readMovie(open: OpenAt): Promise<Movie | null> {
  const file = createFile();
  let movie: Movie | null = null;
  let broken = false;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = () => {
    broken = true;
  };

  let position = 0;
  for (let seeks = 0; seeks <= MAX_SEEKS && !movie && !broken; seeks++) {
    const stream = await open(position);
    let reopenAt: number | null = null;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const copy = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength);
        const next = file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, position));
        position += chunk.byteLength;
        if (movie || broken) break;
        if (next > position + SEEK_THRESHOLD) {
          reopenAt = next;
          break;
        }
      }
    } finally {
      stream.destroy();
    }
    if (reopenAt === null) break; // the whole object has been read
    position = reopenAt;
  }
  if (!movie && !broken) file.flush();
  return movie;
}

export async function readVideoInfo(open: OpenAt): Promise<(VideoInfo & { hasVideoTrack: boolean }) | null> {
  const movie = (await readMovie(open)) as Movie | null;
  if (!movie) return null;
  const video = movie.videoTracks[0];
  return { durationMs: durationMsOf(movie), ...(video ? displaySize(video) : { width: null, height: null }), hasVideoTrack: Boolean(video) };
}
