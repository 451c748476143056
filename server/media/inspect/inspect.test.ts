// Type sniffing, image sizes and video containers, on real bytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { makeSampleMp4, SAMPLE_MP4 } from '@/e2e/fixtures/sample-mp4';
import { makeGif, makeJpeg, makePng, makeWebp } from '../testing/sample-images';
import { readImageSize } from './image-info';
import { describeBytes, sameFamily, sniffContentType } from './sniff';
import { readVideoInfo } from './video-info';

/** Opens a buffer at an offset, in small chunks, counting the opens (seeks). */
function opener(buf: Buffer, chunk = 64) {
  const opens: number[] = [];
  const open = async (start: number) => {
    opens.push(start);
    const parts: Buffer[] = [];
    for (let i = start; i < buf.length; i += chunk) parts.push(buf.subarray(i, i + chunk));
    return Readable.from(parts);
  };
  return { open, opens };
}

describe('sniffContentType', () => {
  it.each([
    ['image/jpeg', makeJpeg(10, 10)],
    ['image/png', makePng(3, 2)],
    ['image/gif', makeGif(4, 4)],
    ['image/webp', makeWebp(5, 6)],
    ['video/mp4', makeSampleMp4()],
    ['video/quicktime', makeSampleMp4({ brand: 'qt  ' })],
  ])('recognises %s from its magic number', (type, bytes) => {
    expect(sniffContentType(bytes)).toBe(type);
  });

  it.each([
    ['HTML', Buffer.from('<!doctype html><html><body>hi</body></html>')],
    ['JSON', Buffer.from('{"a":1}')],
    ['nothing', Buffer.alloc(0)],
    ['a truncated PNG signature', Buffer.from('\x89PN', 'latin1')],
    ['a PDF', Buffer.from('%PDF-1.7\n')],
  ])('refuses %s', (_label, bytes) => {
    expect(sniffContentType(bytes)).toBeNull();
  });

  it('treats MP4 and QuickTime as one family, images exactly', () => {
    expect(sameFamily('video/mp4', 'video/quicktime')).toBe(true);
    expect(sameFamily('image/png', 'image/jpeg')).toBe(false);
    expect(sameFamily('video/mp4', 'image/gif')).toBe(false);
  });

  it('describes refused bodies for messages', () => {
    expect(describeBytes(Buffer.from('<!DOCTYPE html>'))).toBe('an HTML page');
    expect(describeBytes(Buffer.alloc(0))).toBe('an empty body');
  });
});

describe('readImageSize', () => {
  it.each([
    ['PNG', makePng(31, 17)],
    ['JPEG', makeJpeg(31, 17)],
    ['GIF', makeGif(31, 17)],
    ['WebP', makeWebp(31, 17)],
  ])('reads the size of a %s', (_label, bytes) => {
    expect(readImageSize(bytes)).toEqual({ width: 31, height: 17 });
  });

  it('answers nulls for bytes it cannot read', () => {
    expect(readImageSize(Buffer.from('not an image'))).toEqual({ width: null, height: null });
  });
});

describe('readVideoInfo (mp4box)', () => {
  it('reads the committed fixture', async () => {
    const file = readFileSync(path.resolve(import.meta.dirname, '../../../e2e/fixtures', SAMPLE_MP4.file));
    expect(file.equals(makeSampleMp4())).toBe(true);
    const info = await readVideoInfo(opener(file).open);
    expect(info).toEqual({ durationMs: 2500, width: 320, height: 240, hasVideoTrack: true });
  });

  it('reads duration and size whatever the layout, seeking past media data it does not need', async () => {
    const big = makeSampleMp4({ width: 1080, height: 1920, durationMs: 61_234, moovFirst: false, padding: 3 * 1024 * 1024 });
    const { open, opens } = opener(big, 64 * 1024);
    expect(await readVideoInfo(open)).toEqual({ durationMs: 61_234, width: 1080, height: 1920, hasVideoTrack: true });
    expect(opens.length).toBe(2); // the start, then straight to the movie header
    expect(opens[1]).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('answers null for a container without a movie header', async () => {
    const noMoov = Buffer.concat([makeSampleMp4().subarray(0, 32), Buffer.from([0, 0, 0, 16]), Buffer.from('free'), Buffer.alloc(8)]);
    expect(await readVideoInfo(opener(noMoov).open)).toBeNull();
    expect(await readVideoInfo(opener(Buffer.from('garbage that is not a video at all')).open)).toBeNull();
  });
});
