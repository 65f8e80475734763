import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { AppError } from '@svc/envelope';

/**
 * The optional `logo` of create_customer: PNG, JPEG or WebP, at most 512 KB, kept in memory
 * and stored in the customer row. SVG is refused: it can carry script, and dashboards render
 * logos. The declared type must agree with the file's own signature bytes, so a renamed
 * file is refused too.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const TYPE_MSG = 'logo must be a PNG, JPEG or WebP image';

const signatures: Record<(typeof LOGO_TYPES)[number], (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const parse = multer({
  storage: multer.memoryStorage(),
  // Text fields are short (email, password, label); the limits stop a multipart body from
  // being used to make the process buffer large amounts of memory.
  limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
}).single('logo');

function toAppError(error: unknown): AppError {
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new AppError('PAYLOAD_TOO_LARGE', `logo must be at most ${LOGO_MAX_BYTES / 1024} KB`);
      case 'LIMIT_UNEXPECTED_FILE':
      case 'LIMIT_FILE_COUNT':
        return new AppError('INVALID_REQUEST', 'Only one file is accepted, in the field "logo"');
      default:
        return new AppError('INVALID_REQUEST', `Invalid multipart body: ${error.message}`);
    }
  }
  return new AppError('INVALID_REQUEST', 'Malformed multipart body');
}

export const logoUpload: RequestHandler[] = [
  (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be multipart/form-data'));
    }
    parse(req, res, (error: unknown) => next(error ? toAppError(error) : undefined));
  },
  (req: Request, _res: Response, next: NextFunction) => {
    const file = req.file;
    if (file) {
      const check = signatures[file.mimetype as (typeof LOGO_TYPES)[number]];
      if (!check || !check(file.buffer)) return next(new AppError('INVALID_REQUEST', TYPE_MSG));
    }
    next();
  },
];

/** The uploaded logo of this request, checked, or undefined. */
export function uploadedLogo(req: Request): { bytes: Uint8Array<ArrayBuffer>; mimeType: string } | undefined {
  return req.file ? { bytes: new Uint8Array(req.file.buffer), mimeType: req.file.mimetype } : undefined;
}
