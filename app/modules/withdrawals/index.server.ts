/** The withdrawals module's public server API. */
export {
  findOrderForWithdrawal,
  findOwnOrderForWithdrawal,
  getWithdrawal,
  listWithdrawals,
  requestWithdrawal,
  withdrawalLimited,
  type Withdrawal,
  type WithdrawableOrder,
  type WithdrawOutcome,
} from './withdrawals.server';
export { withdrawalRefundMail } from './withdrawal-mail.server';
