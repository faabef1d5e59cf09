/** The orders module's public server API (order views for the customer; records for checkout). */
export { getGuestOrder, getOrderForUser, guestOrderPath, listOrders, withdrawnPositionsByOrder } from './orders.server';
export { parseWithdrawnEntries, withdrawnPositions, type WithdrawnEntry } from './withdrawn';
export {
  attachPayment,
  findOrCreatePendingOrder,
  findOrderByPayment,
  findOrderRecord,
  forgetOrderLineImages,
  getOrderRecordLines,
  lastOrderOfCart,
  setOrderPaid,
  markReplaced,
  type NewOrderLine,
  type OrderRecord,
  type OrderRecordLine,
} from './order-records.server';
export { orderConfirmationMail, shopOrderNotificationMail } from './order-mail.server';
export * from './orders.types';
