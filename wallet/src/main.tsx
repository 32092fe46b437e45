import {
  createTestWalletConnector,
  InterwovenKitProvider,
  injectStyles,
  useInterwovenKit,
} from '@initia/interwovenkit-react';
import css from '@initia/interwovenkit-react/styles.css?inline';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { createConfig, http, injected, useConnect, WagmiProvider } from 'wagmi';
import { mainnet } from 'wagmi/chains';
import { loadConfig, testKey, type WalletPageConfig } from './config';

injectStyles(css);

function Controls({ config, autoConnect }: { config: WalletPageConfig; autoConnect: boolean }) {
  const kit = useInterwovenKit();
  const { connect, connectors } = useConnect();
  // With a test key the page connects its one connector at once, as a dApp reconnects a known wallet.
  useEffect(() => {
    if (autoConnect && !kit.isConnected && connectors[0]) connect({ connector: connectors[0] });
  }, [autoConnect, kit.isConnected, connect, connectors]);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1 style={{ fontSize: 20 }}>weft · InterwovenKit</h1>
      <p>
        Registry <code>{config.registryUrl}</code>, router <code>{config.routerApiUrl}</code>, default chain{' '}
        <code>{config.defaultChainId}</code>.
      </p>
      <p data-testid="address">{kit.isConnected ? kit.initiaAddress : 'not connected'}</p>
      <div style={{ display: 'flex', gap: 8 }}>
        {kit.isConnected ? (
          <>
            <button type="button" onClick={kit.openWallet}>
              Wallet
            </button>
            <button type="button" onClick={() => kit.openBridge(config.bridge)}>
              Bridge
            </button>
            <button type="button" onClick={kit.disconnect}>
              Disconnect
            </button>
          </>
        ) : (
          <button type="button" onClick={kit.openConnect}>
            Connect
          </button>
        )}
      </div>
    </main>
  );
}

async function start() {
  const config = await loadConfig();
  const key = testKey();
  const rpcUrls = Object.fromEntries(Object.entries(config.evmRpcUrls).map(([id, url]) => [Number(id), url]));
  const wagmi = createConfig({
    connectors: key ? [createTestWalletConnector({ privateKey: key, rpcUrls })] : [injected()],
    chains: [mainnet],
    // wagmi needs a chain; the page never reads Ethereum's, so its transport points at the stack too.
    transports: { [mainnet.id]: http(config.absent) },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = document.getElementById('root')!;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <WagmiProvider config={wagmi}>
          <InterwovenKitProvider
            defaultChainId={config.defaultChainId}
            registryUrl={config.registryUrl}
            routerApiUrl={config.routerApiUrl}
            usernamesModuleAddress={config.modules.usernames}
            lockStakeModuleAddress={config.modules.lockStaking}
            clammVaultModuleAddress={config.modules.clammVault}
            glyphUrl={config.absent}
            minityUrl={config.absent}
            dexUrl={config.absent}
            vipUrl={config.absent}
            depositApiUrl={undefined}
            onramperApiUrl={undefined}
            onramperApiKey={undefined}
            disableAnalytics
            theme="dark"
          >
            <Controls config={config} autoConnect={key !== undefined} />
          </InterwovenKitProvider>
        </WagmiProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

start().catch((err) => {
  document.getElementById('root')!.textContent = `The wallet page could not start: ${String(err)}`;
});
