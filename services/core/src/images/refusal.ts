/**
 * Why an upload is not taken as a picture: not a raster image of an accepted type (whatever its
 * name or declared type says), more pixels than may be decoded, or damaged or incomplete data.
 */
export type ImageProblem = 'not_an_image' | 'too_many_pixels' | 'unreadable';

/** An upload refused by its content; each feature answers it with its own message. */
export class ImageRefused extends Error {
  constructor(readonly problem: ImageProblem) {
    super(`image refused: ${problem}`);
    this.name = 'ImageRefused';
  }
}
