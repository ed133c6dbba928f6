/** The voice capture API's settings (Lambda functions and the local gateway). */
import { ConfigurationError } from "../configuration-error.ts";
import { defineSetting, text } from "./setting.ts";

/** Where `npm run voice` listens unless VOICE_LOCAL_PORT says otherwise. */
export const defaultVoiceLocalPort = 8787;
/** The zone dictated dates are read in unless VOICE_TIMEZONE says otherwise. */
export const defaultVoiceTimezone = "UTC";

export const clientTokenParameter = defineSetting({
  name: "CLIENT_TOKEN_PARAMETER",
  type: "SSM parameter name",
  defaultText: "none",
  meaning: "the SSM SecureString holding the client token the authorizer checks",
  readBy: ["voice"],
  parse: text(),
});

export const voiceModelId = defineSetting({
  name: "VOICE_MODEL_ID",
  type: "Bedrock model id",
  defaultText: "none",
  meaning: "the Bedrock model or inference profile that reads the dictation",
  readBy: ["voice"],
  parse: text(),
});

export const voiceTimezone = defineSetting({
  name: "VOICE_TIMEZONE",
  type: "IANA time zone",
  defaultText: defaultVoiceTimezone,
  meaning: 'the zone "tomorrow at 9" is read in',
  readBy: ["voice"],
  parse: text(defaultVoiceTimezone),
});

export const voiceLocalPort = defineSetting({
  name: "VOICE_LOCAL_PORT",
  type: "0-65535",
  defaultText: String(defaultVoiceLocalPort),
  meaning: "the port of npm run voice (the local gateway); 0 picks a free one and prints it",
  readBy: ["voice"],
  parse: (value: string | undefined): number => {
    if (value === undefined) return defaultVoiceLocalPort;
    if (!/^\d+$/.test(value) || Number(value) > 65_535)
      throw new ConfigurationError(`VOICE_LOCAL_PORT must be a port number from 0 to 65535 (0 picks a free one); got "${value}".`);
    return Number(value);
  },
});

export const voiceLocalClientToken = defineSetting({
  name: "VOICE_LOCAL_CLIENT_TOKEN",
  type: "secret",
  defaultText: "none (the authorizer's SSM parameter)",
  meaning: "the client token npm run voice accepts, instead of the one in SSM",
  readBy: ["voice"],
  secret: true,
  parse: text(),
});
