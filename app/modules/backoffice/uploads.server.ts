/**
 * Pictures the owner uploads: recognised by their bytes (JPEG, PNG, WebP, AVIF — never by name or declared
 * type), bounded in bytes and pixels before anything is decoded, then stored as the storefront's WebP
 * variants with the EXIF rotation applied and every bit of metadata (GPS, camera, profile) left behind.
 */
import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { ImageDecodeError, type Storage, deleteImageVariants, storeImageVariants } from '~/modules/storage/index.server';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_RATIO } from './product-form';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The picture format the bytes begin with, or null for anything else (SVG, GIF, HEIC, PDF, HTML …). */
export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  // ISO-BMFF: a leading `ftyp` box whose major or compatible brands name AVIF.
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = Math.min(((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0, bytes.length, 256);
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at === 12) continue; // the minor version, not a brand
      const brand = ascii(bytes, at, at + 4);
      if (brand === 'avif' || brand === 'avis') return 'avif';
    }
  }
  return null;
}

/** Why a picture was refused: an i18n key under admin.productForm.errors, with the file's name. */
export class ImageRejected extends Error {
  constructor(
    public readonly reason: 'imageType' | 'imageTooLarge' | 'imageTooManyPixels' | 'imageProportions' | 'imageUnreadable',
    public readonly fileName: string,
  ) {
    super(`${reason}: ${fileName}`);
    this.name = 'ImageRejected';
  }
}

export type CheckedImage = { name: string; bytes: Buffer; format: ImageFormat; width: number; height: number };

/** Reads and checks one uploaded file without decoding its pixels: its format by its bytes, its size, its pixel count. */
export async function checkImage(file: File): Promise<CheckedImage> {
  const name = file.name || 'image';
  if (file.size > MAX_IMAGE_BYTES) throw new ImageRejected('imageTooLarge', name);
  const bytes = Buffer.from(await file.arrayBuffer());
  const format = sniffImage(bytes);
  if (!format) throw new ImageRejected('imageType', name);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected('imageUnreadable', name);
  }
  if (!meta.width || !meta.height) throw new ImageRejected('imageUnreadable', name);
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new ImageRejected('imageTooManyPixels', name);
  // A sliver (100 × 20,000 px) would make variants beyond WebP's 16,383 px side after seconds of work.
  if (Math.max(meta.width, meta.height) > MAX_IMAGE_RATIO * Math.min(meta.width, meta.height)) throw new ImageRejected('imageProportions', name);
  return { name, bytes, format, width: meta.width, height: meta.height };
}

export type StoredPicture = { key: string; width: number; height: number };

/**
 * Stores checked pictures under `products/{productId}/{random}`, one after another (each decode holds up to
 * 40 MP in memory). If any fails, every picture stored so far is deleted again and the error is thrown.
 */
export async function storeUploadedImages(storage: Storage, productId: string, images: CheckedImage[]): Promise<StoredPicture[]> {
  const stored: StoredPicture[] = [];
  try {
    for (const image of images) {
      const key = `products/${productId}/${randomBytes(6).toString('base64url')}`;
      try {
        const size = await storeImageVariants(storage, key, image.bytes, { crop: false, maxPixels: MAX_IMAGE_PIXELS });
        stored.push({ key, ...size });
      } catch (error) {
        if (!(error instanceof ImageDecodeError)) throw error;
        throw new ImageRejected(/pixel limit/.test(error.message) ? 'imageTooManyPixels' : 'imageUnreadable', image.name);
      }
    }
    return stored;
  } catch (error) {
    await deleteImages(storage, stored.map((picture) => picture.key));
    throw error;
  }
}

/** Deletes pictures' variants; failures are left for the caller's log, never thrown. */
export async function deleteImages(storage: Storage, keys: string[]): Promise<PromiseSettledResult<void>[]> {
  return Promise.allSettled(keys.map((key) => deleteImageVariants(storage, key)));
}
