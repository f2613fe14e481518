/** An OAuth client's id and secret, as the token endpoint authenticates them. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}
