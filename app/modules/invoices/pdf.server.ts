/**
 * An invoice as a PDF (A4), in its language, from its snapshot alone: the same invoice renders the same document.
 * DejaVu Sans is embedded (subset) so Polish letters and the no-break spaces of Polish amounts are real glyphs,
 * never one of the 14 standard fonts that cannot show "ą" or "ł".
 */
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { formatNumber, formatPrice } from '~/lib/format';
import { countryName } from '~/modules/delivery/countries';
import { getT } from '~/modules/i18n/index.server';
import { formatRate } from '~/modules/tax/vat';
import type { Invoice } from './invoices.server';
import { CERTIFICATE_QR_LABEL, qrLabel } from '~/modules/ksef/index.server';
import { ksefEligible, vatInPln } from './ksef';

const require = createRequire(import.meta.url);
const fonts = { regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };

const ROAST = '#2B1A12';
const MUTED = '#6B5A4E';
const LINE = '#E4D8C6';
/** Room beside a QR code for its label (a KSeF number fits on one line under it). */
const QR_LABEL_ROOM = 80;

/** A code's side in points: 96, or more for a dense one (KOD II), so a module stays 1.45 pt (about half a millimetre). */
const qrSizeOf = (text: string) => Math.max(96, Math.ceil((QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size + 8) * 1.45));

/**
 * KOD I (kody-qr.md): the link that verifies the invoice in KSeF, and what is printed under it (`qrLabel`: the KSeF
 * number, or OFFLINE). `certificateUrl`: KOD II, on an invoice handed to its buyer offline (docs/decisions/0034),
 * printed beside it with CERTYFIKAT under it.
 */
export type KsefMark = { url: string; label: string; certificateUrl?: string | null };

export function renderInvoicePdf(invoice: Invoice, ksef?: KsefMark): Promise<Buffer> {
  const t = getT(invoice.locale);
  const money = (cents: number) => formatPrice(cents, invoice.currency === 'PLN' ? 'PLN' : 'EUR', invoice.locale);
  const day = (iso: string) => new Intl.DateTimeFormat(invoice.locale === 'pl' ? 'pl-PL' : 'en-GB', { dateStyle: 'long', timeZone: 'Europe/Warsaw' }).format(new Date(iso));
  const title = t(invoice.kind === 'correction' ? 'invoices.pdf.correctionTitle' : 'invoices.pdf.title', { number: invoice.number });

  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: title, Author: invoice.seller.name, CreationDate: new Date(invoice.issuedAt) }, lang: invoice.locale });
  doc.registerFont('Sans', fonts.regular);
  doc.registerFont('Sans-Bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font('Sans-Bold').fontSize(18).fillColor(ROAST).text(title, left, 48);
  doc.moveDown(0.3);
  doc.font('Sans').fontSize(9).fillColor(MUTED);
  doc.text(`${t('invoices.pdf.issued')}: ${day(invoice.issuedAt)}    ${t('invoices.pdf.saleDate')}: ${day(`${invoice.saleDate}T12:00:00Z`)}`);
  if (invoice.correctsNumber) doc.text(t('invoices.pdf.corrects', { number: invoice.correctsNumber, date: invoice.correctsIssuedAt ? day(invoice.correctsIssuedAt) : '' }).trim());

  // Seller and buyer side by side.
  const top = doc.y + 16;
  const column = (x: number, heading: string, lines: string[]) => {
    doc.font('Sans-Bold').fontSize(9).fillColor(MUTED).text(heading.toUpperCase(), x, top, { width: width / 2 - 12, characterSpacing: 0.5 });
    doc.font('Sans').fontSize(10).fillColor(ROAST);
    for (const line of lines.filter(Boolean)) doc.text(line, x, doc.y + 2, { width: width / 2 - 12 });
    return doc.y;
  };
  const sellerEnd = column(left, t('invoices.pdf.seller'), [invoice.seller.name, ...invoice.seller.address.split(/\s*\n\s*/), `${t('invoices.pdf.nip')}: ${invoice.seller.taxId}`, invoice.seller.email ?? '']);
  const buyer = invoice.buyer;
  const buyerEnd = column(left + width / 2 + 12, t('invoices.pdf.buyer'), [
    buyer.name,
    buyer.address,
    `${buyer.zipCode} ${buyer.city}`,
    countryName(buyer.country, invoice.locale),
    buyer.taxId ? `${buyer.country === 'PL' ? t('invoices.pdf.nip') : t('invoices.pdf.vatNumber')}: ${buyer.taxId}` : '',
  ]);

  // The lines.
  const cols = [
    { key: 'no', w: 0.05, align: 'left' as const },
    { key: 'name', w: 0.27, align: 'left' as const },
    { key: 'quantity', w: 0.08, align: 'right' as const },
    { key: 'unitPrice', w: 0.12, align: 'right' as const },
    { key: 'net', w: 0.12, align: 'right' as const },
    { key: 'rate', w: 0.10, align: 'right' as const },
    { key: 'vat', w: 0.12, align: 'right' as const },
    { key: 'gross', w: 0.14, align: 'right' as const },
  ];
  let y = Math.max(sellerEnd, buyerEnd) + 24;
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? 'Sans-Bold' : 'Sans').fontSize(9).fillColor(bold ? MUTED : ROAST);
    let x = left;
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: cols[i]!.w * width - 6 }));
    const height = Math.max(...heights);
    if (y + height > doc.page.height - 96) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    cells.forEach((cell, i) => {
      doc.text(cell, x, y, { width: cols[i]!.w * width - 6, align: cols[i]!.align });
      x += cols[i]!.w * width;
    });
    y += height + 6;
    doc.moveTo(left, y - 3).lineTo(left + width, y - 3).strokeColor(LINE).lineWidth(0.5).stroke();
  };
  row(cols.map((c) => t(`invoices.pdf.columns.${c.key}`)), true);
  invoice.lines.forEach((line, i) => {
    // A code's share of the line is said under its name: unit price × quantity − discount = gross.
    const discount = line.unitGrossCents * line.quantity - line.grossCents;
    const name = [line.name, line.sku ?? '', discount > 0 ? t('invoices.pdf.discount', { amount: money(discount) }) : ''].filter(Boolean).join('\n');
    row([String(i + 1), name, `${line.quantity} ${t('invoices.pdf.unit')}`, money(line.unitGrossCents), money(line.netCents), formatRate(line.rateBp, invoice.locale), money(line.vatCents), money(line.grossCents)]);
  });

  // The VAT summary per rate, then the total.
  y += 8;
  const summaryX = left + width * 0.28;
  const summary = (label: string, cells: string[], bold = false) => {
    doc.font(bold ? 'Sans-Bold' : 'Sans').fontSize(9).fillColor(ROAST);
    doc.text(label, summaryX, y, { width: width * 0.24 - 6 });
    let x = left + width * 0.52;
    for (const [i, w] of [0.12, 0.1, 0.12, 0.14].entries()) {
      doc.text(cells[i] ?? '', x, y, { width: w * width - 6, align: 'right' });
      x += w * width;
    }
    y += 16;
  };
  for (const part of invoice.totals.byRate) summary(t('invoices.pdf.atRate'), [money(part.netCents), formatRate(part.rateBp, invoice.locale), money(part.vatCents), money(part.grossCents)]);
  summary(t('invoices.pdf.total'), [money(invoice.totals.netCents), '', money(invoice.totals.vatCents), money(invoice.totals.grossCents)], true);

  y += 12;
  // A euro invoice under Polish VAT states its VAT in złoty too, at the rate it was issued with (art. 106e ust. 11);
  // one charging another country's VAT under OSS does not (the XML puts it in P_13_5, with no złoty amount).
  if (invoice.currency !== 'PLN' && invoice.totals.plnRate && invoice.seller.taxId && !invoice.totals.taxCountry) {
    // Each rate's VAT converted once, to the grosz exactly as the KSeF XML does (P_14_xW).
    const plnVat = vatInPln(invoice.totals.byRate, invoice.totals.plnRate);
    const rate = formatNumber(invoice.totals.plnRate, invoice.locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
    const amount = formatPrice(plnVat, 'PLN', invoice.locale);
    const nbp = invoice.totals.nbp;
    doc.font('Sans').fontSize(9).fillColor(ROAST);
    doc.text(nbp ? t('invoices.pdf.vatInPlnNbp', { amount, rate, table: nbp.table, date: day(`${nbp.date}T12:00:00Z`) }) : t('invoices.pdf.vatInPln', { amount, rate }), left, y, { width });
    y = doc.y + 8;
  }
  // KOD I in the payment block's right-hand corner with its label under it (the KSeF number, or OFFLINE); an invoice
  // handed over offline has KOD II (CERTYFIKAT) to its left, the two in a row of their own under the payment block.
  const codes = ksef ? [...(ksef.certificateUrl ? [{ url: ksef.certificateUrl, label: CERTIFICATE_QR_LABEL, caption: t('invoices.pdf.certificateQr') }] : []), { url: ksef.url, label: ksef.label, caption: t('invoices.pdf.ksefQr') }] : [];
  const sized = codes.map((code) => ({ ...code, size: qrSizeOf(code.url) }));
  const drawCodes = (top: number) => {
    let right = left + width;
    for (const code of sized.toReversed()) {
      const slot = code.size + QR_LABEL_ROOM;
      const x = right - slot;
      drawQr(doc, code.url, x + QR_LABEL_ROOM / 2, top, code.size);
      doc.font('Sans').fontSize(6.5).fillColor(ROAST).text(code.label, x, top + code.size + 4, { width: slot, align: 'center' });
      doc.font('Sans').fontSize(6.5).fillColor(MUTED).text(code.caption, x, doc.y + 1, { width: slot, align: 'center' });
      right = x;
    }
  };
  const beside = codes.length === 1;
  if (beside) drawCodes(y);
  const textWidth = beside ? width - sized[0]!.size - QR_LABEL_ROOM : width;
  doc.font('Sans-Bold').fontSize(11).fillColor(ROAST).text(`${t('invoices.pdf.toPay')}: ${money(0)}`, left, y, { width: textWidth });
  doc.font('Sans').fontSize(9).fillColor(MUTED);
  const paid = invoice.payment.paidAt ? day(invoice.payment.paidAt) : '';
  doc.text(
    invoice.kind === 'correction'
      ? t('invoices.pdf.refunded', { amount: money(-invoice.totals.grossCents) })
      : t('invoices.pdf.paid', { amount: money(invoice.totals.grossCents), date: paid, method: t(`invoices.pdf.providers.${invoice.payment.provider === 'stripe' ? 'stripe' : 'test'}`) }),
  );
  if (invoice.payment.reference) doc.text(`${t('invoices.pdf.reference')}: ${invoice.payment.reference}`);
  doc.text(t('invoices.pdf.order', { label: invoice.orderId.slice(-6).toUpperCase() }));
  if (ksefEligible(invoice) || ksef) doc.moveDown(0.5).text(t('invoices.pdf.ksef'), left, doc.y, { width: textWidth });
  // Handed over before KSeF numbered it: said in words too.
  if (ksef?.certificateUrl && ksef.label === qrLabel(null)) doc.moveDown(0.5).text(t('invoices.pdf.offline'), left, doc.y, { width: textWidth });
  if (codes.length > 1) {
    let top = doc.y + 16;
    if (top + Math.max(...sized.map((c) => c.size)) + 30 > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      top = doc.page.margins.top;
    }
    drawCodes(top);
  }
  doc.end();
  return done;
}

/** A QR code (ISO/IEC 18004, error correction M) drawn as vector squares, with the standard's four-module quiet zone. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size + 8;
  const cell = size / count;
  doc.save().rect(x, y, size, size).fill('#FFFFFF');
  doc.fillColor('#000000');
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) doc.rect(x + (col + 4) * cell, y + (row + 4) * cell, cell + 0.02, cell + 0.02);
    }
  }
  doc.fill().restore();
}
