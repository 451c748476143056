// Width and height of an image, from its header (image-size, a maintained parser).
import { imageSize } from 'image-size';

/** Headers sit at the start; a JPEG's size marker can follow large EXIF blocks, hence a generous prefix. */
export const IMAGE_HEADER_BYTES = 1024 * 1024;

export function readImageSize(head: Uint8Array): { width: number | null; height: number | null } {
  try {
    const size = imageSize(head);
    if (!size.width || !size.height) return { width: null, height: null };
    // EXIF orientations 5–8 are rotated a quarter turn: report the size as displayed.
    return size.orientation && size.orientation >= 5 ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
  } catch {
    return { width: null, height: null };
  }
}
