export { countActivity, listActivity, recordActivity, type ActivityAction, type ActivityEntry, type Actor } from './activity.server';
