export function label(payload) {
  return payload.seat ? `Bidder ${payload.seat}` : "Spectator";
}
