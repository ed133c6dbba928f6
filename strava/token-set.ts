/** The tokens a refresh (or the first code exchange) produces at Strava's token endpoint. */
export interface TokenSet {
  access_token: string;
  refresh_token: string;
  /** Epoch seconds at which `access_token` stops working. */
  expires_at: number;
}
