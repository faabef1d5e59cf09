/** The owner's orders: listing, one order's page, and moving orders on (processing → shipped → delivered). */
export { OWNER_ORDERS_PAGE_SIZE, canMove, deliveryMoment, getOwnerOrder, listOwnerOrders, moveOrder, sendOrderMailAgain, type Move, type MoveOutcome, type OwnerOrder, type OwnerOrderRow, type TimelineEntry } from './fulfilment.server';
export * from './carriers';
export { cancelOrder, canCancel, listRefunds, refundUnservedOrders, shopActor, type CancelOptions, recordRefundEvent, refundWithdrawal, type CancelOutcome, type RefundEventOutcome, type RefundServices, type WithdrawalRefundOutcome } from './refunds.server';
export { confirmShipment, createShipment, orderParcelGrams, shipmentLabel, shipmentService, suggestedSize, type ShipmentOutcome, type ShipmentServices } from './shipments.server';
export { createShipx, type Shipx } from './shipx.server';
