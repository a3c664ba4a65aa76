import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { inlineDisposition } from '../../spaces/files/files.controller';
import type { PdfDownload } from './change-request-pdf.service';

/** A signed PDF download as answered: cached privately while its URL is valid, shown inline. */
export function pdfResponse(pdf: PdfDownload, response: Response): StreamableFile {
  response.setHeader('Cache-Control', `private, max-age=${pdf.remainingSeconds}`);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  return new StreamableFile(pdf.stream, {
    type: 'application/pdf',
    disposition: inlineDisposition(pdf.fileName),
  });
}
