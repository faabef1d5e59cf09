// oidc-provider (a dev dependency, used by the OpenID Connect tests) ships without type declarations.
declare module 'oidc-provider' {
  type Any = any;
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    interactionDetails(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<Any>;
    interactionFinished(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: Any;
    on(event: string, listener: (...args: Any[]) => void): void;
  }
  export const interactionPolicy: { base(): Any; Prompt: new (options: { name: string; requestable: boolean }) => Any };
}
