import { APPLICATION_ICON_IMAGE_PATTERN, APPLICATION_LIMITS } from '@gatehouse/contracts';
import type { FieldError } from '@gatehouse/core';
import { ImageRefused, reencodeImage, type ImageProblem } from '@gatehouse/core/images';

/** The longest side an uploaded icon is stored at: icons are shown at 16 to 64 pixels (and twice that on dense screens). */
export const ICON_SIDE = 256;
/** The most pixels an uploaded icon may declare (see ImageLimits). */
export const ICON_MAX_PIXELS = 16_000_000;
/** What every uploaded icon is stored and served as: a PNG written here. */
const ICON_TYPE = 'image/png';
const LIMITS = { formats: ['png', 'jpeg', 'gif', 'webp', 'ico'], maxPixels: ICON_MAX_PIXELS } as const;

function iconError(problem: ImageProblem): FieldError {
  if (problem === 'too_many_pixels') return { field: 'iconImage', code: 'applications.icon_too_many_pixels', params: { limit: ICON_MAX_PIXELS / 1_000_000 } };
  if (problem === 'unreadable') return { field: 'iconImage', code: 'applications.icon_unreadable' };
  return { field: 'iconImage', code: 'applications.invalid_icon_image', params: { limit: `${APPLICATION_LIMITS.iconBytes / 1024} KB` } };
}

/**
 * The uploaded icon (a base64 data URL) as it is stored: decoded and written again as a PNG of at
 * most ICON_SIDE pixels a side, so that the icon routes only ever serve bytes written here. The
 * declared type only has to be one of the accepted ones; the content decides, and must be a PNG,
 * JPEG, GIF, WebP or ICO image (never an SVG), within the size limit, that decodes whole.
 * Otherwise null, with the reason added to `errors`.
 */
export async function storedIconImage(dataUrl: string, errors: FieldError[]): Promise<{ data: Buffer; contentType: string } | null> {
  const match = APPLICATION_ICON_IMAGE_PATTERN.exec(dataUrl);
  const upload = match ? Buffer.from(match[2]!, 'base64') : undefined;
  if (!upload?.length || upload.length > APPLICATION_LIMITS.iconBytes) {
    errors.push(iconError('not_an_image'));
    return null;
  }
  try {
    const data = await reencodeImage(upload, LIMITS, (image) => image.rotate().resize(ICON_SIDE, ICON_SIDE, { fit: 'inside', withoutEnlargement: true }).png());
    return { data, contentType: ICON_TYPE };
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    errors.push(iconError(error.problem));
    return null;
  }
}
