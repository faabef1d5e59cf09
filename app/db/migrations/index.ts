import type { Migration } from 'kysely/migration';
import * as storefront from './0001-storefront';
import * as search from './0002-search';
import * as accounts from './0003-accounts';
import * as orders from './0004-orders';
import * as requestPipeline from './0005-request-pipeline';
import * as backoffice from './0006-backoffice';
import * as catalogState from './0007-catalog-state';
import * as fulfilment from './0008-fulfilment';
import * as outboxRecipient from './0009-outbox-recipient';
import * as refundsMessages from './0010-refunds-messages';
import * as rush from './0011-rush';
import * as translatedPlaces from './0012-translated-places';
import * as netWeight from './0013-net-weight';
import * as withdrawals from './0014-withdrawals';
import * as reviews from './0015-reviews';
import * as searchWords from './0016-search-words';
import * as variants from './0017-variants';
import * as stock from './0018-stock';
import * as delivery from './0019-delivery';
import * as shipments from './0020-shipments';
import * as guestOrders from './0021-guest-orders';
import * as currencies from './0022-currencies';
import * as paymentMethods from './0023-payment-methods';
import * as promotions from './0024-promotions';
import * as tax from './0025-tax';
import * as invoices from './0026-invoices';
import * as privacy from './0027-privacy';
import * as ossPrices from './0028-oss-prices';
import * as confirmedSessions from './0029-confirmed-sessions';
import * as fairHolds from './0030-fair-holds';
import * as parkedMail from './0031-parked-mail';
import * as paidWith from './0032-paid-with';
import * as roundThresholds from './0033-round-thresholds';
import * as ksef from './0034-ksef';
import * as ksefOffline from './0035-ksef-offline';

/** Migrations are registered in code (not read from disk) so they run the same under Vite, Vitest and tsx. */
export const migrations: Record<string, Migration> = {
  '0001-storefront': storefront,
  '0002-search': search,
  '0003-accounts': accounts,
  '0004-orders': orders,
  '0005-request-pipeline': requestPipeline,
  '0006-backoffice': backoffice,
  '0007-catalog-state': catalogState,
  '0008-fulfilment': fulfilment,
  '0009-outbox-recipient': outboxRecipient,
  '0010-refunds-messages': refundsMessages,
  '0011-rush': rush,
  '0012-translated-places': translatedPlaces,
  '0013-net-weight': netWeight,
  '0014-withdrawals': withdrawals,
  '0015-reviews': reviews,
  '0016-search-words': searchWords,
  '0017-variants': variants,
  '0018-stock': stock,
  '0019-delivery': delivery,
  '0020-shipments': shipments,
  '0021-guest-orders': guestOrders,
  '0022-currencies': currencies,
  '0023-payment-methods': paymentMethods,
  '0024-promotions': promotions,
  '0025-tax': tax,
  '0026-invoices': invoices,
  '0027-privacy': privacy,
  '0028-oss-prices': ossPrices,
  '0029-confirmed-sessions': confirmedSessions,
  '0030-fair-holds': fairHolds,
  '0031-parked-mail': parkedMail,
  '0032-paid-with': paidWith,
  '0033-round-thresholds': roundThresholds,
  '0034-ksef': ksef,
  '0035-ksef-offline': ksefOffline,
};
