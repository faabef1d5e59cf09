/** Reports for the back office: the dashboard's figures and the orders export. */
export { getDashboard, type Dashboard, type DayFigures, type Funnel, type TopProduct } from './dashboard.server';
export { isPeriod, periods, type Period } from './periods';
export { exportOrdersCsv } from './orders-csv.server';
export { crossBorderSales, exportOssCsv, lastQuarter, ossQuarter, quarterOf, type CrossBorderSales, type OssRow } from './oss.server';
export { addDays, isShopDay, shopDayOf, startOfShopDay, type ShopDay } from '~/lib/shop-days';
