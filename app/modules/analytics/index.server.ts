export { countEvents, recordEvent, type RecordEventInput } from './analytics.server';
