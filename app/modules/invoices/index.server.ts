/** Invoices' public server API: issuing, numbering, the PDF as issued (docs/decisions/0028). */
export * from './buyer';
export {
  INVOICE_SERIES,
  getInvoice,
  invoiceFileName,
  invoiceAcceptedByKsef,
  invoiceHandedOverOffline,
  invoiceMail,
  invoicePdf,
  invoiceXml,
  monthKsefXml,
  invoiceWindow,
  invoicesByOrder,
  correctRefundedInvoices,
  issueCorrections,
  issueInvoice,
  listOrderInvoices,
  nextInvoiceNumber,
  recordKsefNumber,
  sellerOf,
  sellerProblem,
  totalsOf,
  type Invoice,
  type InvoiceLine,
  type IssueOutcome,
  type RecordKsefOutcome,
  type Seller,
} from './invoices.server';
export { renderInvoicePdf } from './pdf.server';
export { isKsefNumber, ksefEligible, ksefXml } from './ksef';
export { type ExchangeRates, type NbpRate, createNbpRates } from './nbp.server';
