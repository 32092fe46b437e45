// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

/// Holds a value; also run through DELEGATECALL by `Nester`, so its slot 0 lines up with Nester's.
contract Leaf {
    uint256 public value;

    function read() external view returns (uint256) {
        return value;
    }

    function poke(uint256 v) external {
        value = v;
    }
}

contract Middle {
    uint256 public relays;
    uint256 public booms;

    /// Not `view`, so a call to it is a CALL; the read of the leaf is a STATICCALL.
    function relay(Leaf leaf) external returns (uint256) {
        relays += 1;
        return leaf.read();
    }

    /// Writes before reverting, so the call is a CALL and its write is rolled back.
    function boom(string calldata reason) external {
        booms += 1;
        revert(reason);
    }
}

/// Produces nested call trees: CALL → CALL → STATICCALL plus a DELEGATECALL, a caught inner revert, and
/// a revert of the whole tx. Deploying it creates its two helpers (CREATE → CREATE, CREATE).
contract Nester {
    uint256 public pokes;
    Leaf public leaf;
    Middle public middle;
    uint256 public failures;

    constructor() {
        leaf = new Leaf();
        middle = new Middle();
    }

    function nest(uint256 v) external returns (uint256) {
        uint256 seen = middle.relay(leaf);
        (bool ok, ) = address(leaf).delegatecall(abi.encodeWithSelector(Leaf.poke.selector, v));
        require(ok, "delegatecall failed");
        return seen;
    }

    function nestWithInnerRevert() external returns (bool) {
        middle.relay(leaf);
        try middle.boom("inner failure") {
            return true;
        } catch {
            failures += 1;
            return false;
        }
    }

    /// Passes half its value on to `to` (an inner CALL with value), and offers the rest to `middle`,
    /// which is not payable: that inner move reverts and the rest stays here.
    function share(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value / 2}("");
        require(ok, "share failed");
        (bool taken, ) = address(middle).call{value: msg.value - msg.value / 2}(
            abi.encodeWithSelector(Middle.relay.selector, leaf)
        );
        require(!taken, "middle took value");
    }

    function nestAndRevert() external {
        middle.relay(leaf);
        revert("nester failed");
    }
}
