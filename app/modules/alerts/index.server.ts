/** "Notify me when it's back": the module's public server API (docs/decisions/0020). */
export { cancelRestockAlert, findRestockAlert, notifyRestocked, pruneRestockAlerts, subscribeToRestock, type SubscribeResult } from './alerts.server';
export * from './alerts.schema';
