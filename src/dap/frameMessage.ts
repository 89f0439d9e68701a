/** One message as the Debug Adapter Protocol frames it: its JSON's length in bytes, a blank line, the JSON. */
export function frameMessage(message: object): string {
  const json = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`;
}
