// The key a client's address is counted under. request.ip is already the client as the configured
// proxies report it (TRUST_PROXY). IPv4-mapped IPv6 counts as IPv4, and IPv6 counts by its /64:
// one subscriber usually holds a whole /64, so counting single addresses would be trivially evaded.
import ipaddr from 'ipaddr.js';

export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
