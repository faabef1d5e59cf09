export { countEvents, recordEvent, type RecordEventInput } from './analytics.server';
export { pendingEventCookie } from './pending-event.server';
